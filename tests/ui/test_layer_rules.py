from core.settings import carried_layer, layer_setting, layer_used


def test_the_last_layer_is_stored_as_none_and_read_back():
    assert layer_used(None, 6) == 6 and layer_used(2, 6) == 2
    assert layer_setting(6, 6) is None and layer_setting(2, 6) == 2


def test_a_chosen_layer_carries_over_to_a_model_of_another_depth():
    assert carried_layer(2, previous_last=6, last=3) == 2  # still there
    assert carried_layer(5, previous_last=6, last=3) == 3  # past the new last layer
    assert carried_layer(6, previous_last=6, last=12) == 12  # "the last layer" stays the last
    assert carried_layer(6, previous_last=6, last=6) == 6
    assert carried_layer(3, previous_last=6, last=12) == 3
