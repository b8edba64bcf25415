"""The Map page given an uploaded CSV of texts and a topic column, coloured by the topic (AppTest)."""


def upload_topics(at, rows: list[tuple[str, str]], name: str = "texts.csv"):
    content = "text,topic\n" + "".join(f"{text},{topic}\n" for text, topic in rows)
    at.radio(key="map_source").set_value("upload").run()
    at.file_uploader(key="map_upload").upload(name, content.encode(), "text/csv").run()
    at.selectbox(key="map_label_col").set_value("topic").run()
    assert not at.exception and not at.error
    return at
