"""What a run says when a cluster refuses it: the cause (a token missing, wrong or kept back) and where Ray reads
the token. The refusals themselves are met on a started cluster in test_started_cluster."""

import pytest

from core.scale.cluster import ScaleError, check_answers, token_refused, token_source


@pytest.fixture(autouse=True)
def no_ray_settings(monkeypatch):
    for key in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.delenv(key, raising=False)


def test_the_token_is_read_where_ray_reads_it_in_ray_s_order(monkeypatch):
    assert token_source() == "~/.ray/auth_token"
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", "/etc/ray/token")
    assert token_source() == "/etc/ray/token"
    monkeypatch.setenv("RAY_AUTH_TOKEN", "abc")
    assert token_source() == "the variable RAY_AUTH_TOKEN"


def test_a_refusal_names_its_cause_and_the_way_to_the_cluster_s_token(monkeypatch):
    none = token_refused("head:6379", sent=False)
    assert none.startswith("The Ray cluster at head:6379 asks for its authentication token and this machine has none")
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", "/etc/ray/token")
    wrong = token_refused("head:6379", sent=True)
    assert "refuses this machine's authentication token (read from /etc/ray/token)" in wrong
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    kept = token_refused("head:6379", sent=False)
    assert "RAY_AUTH_MODE=disabled keeps this machine from sending one: unset RAY_AUTH_MODE" in kept
    for said in (none, wrong, kept):
        assert "`ray get-auth-token`" in said and "No Ray cluster answers" not in said


def test_an_address_without_a_port_is_said_to_be_one(tmp_path):
    with pytest.raises(ScaleError, match="head is not a Ray address; give host:6379"):
        check_answers("head")
