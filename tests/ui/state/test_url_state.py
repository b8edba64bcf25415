from core.settings import Settings
from ui.state.url_state import settings_from_query, settings_to_query


def test_settings_round_trip_through_the_query_string():
    settings = Settings(model_id="paraphrase-MiniLM-L3-v2", pooling="cls", layer=2, normalize=True, max_length=64)
    assert settings_from_query(settings_to_query(settings)) == settings


def test_defaults_leave_layer_and_length_out_of_the_url():
    assert settings_to_query(Settings()) == {"model": "all-MiniLM-L6-v2", "pooling": "default", "norm": "0",
                                             "device": "auto"}


def test_values_that_do_not_parse_fall_back_to_defaults():
    settings = settings_from_query({"pooling": "median", "layer": "-3", "maxlen": "1", "norm": "yes",
                                    "device": "tpu"})
    assert settings == Settings()
