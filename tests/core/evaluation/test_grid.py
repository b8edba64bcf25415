import itertools

from core.evaluation.grid import Configuration, configuration_grid


def test_every_existing_combination_in_order_and_a_layer_a_model_lacks_is_skipped():
    grid, total = configuration_grid({"deep": 12, "shallow": 3}, ["mean", "cls"], ["last", 6], limit=99)
    expected = [(m, p, k) for m, p, k in itertools.product(["deep", "shallow"], ["mean", "cls"], ["last", 6])
                if not (m == "shallow" and k == 6)]
    assert [(c.model_id, c.pooling, "last" if c.layer is None else c.layer) for c in grid] == expected
    assert total == len(expected) == 6
    assert grid[0] == Configuration("deep · mean · layer last", "deep", "mean", None)


def test_the_limit_keeps_the_first_and_counts_all():
    grid, total = configuration_grid({"m": 6}, ["mean", "cls", "max"], ["last", 0, 1, 2, 3], limit=4)
    assert len(grid) == 4 and total == 15
