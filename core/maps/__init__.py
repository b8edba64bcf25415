"""A corpus becomes a map, in one place for every host (the Map page, the notebook's MapWidget, `python -m core
project`): each row's vector as its model's kind gives it (core.maps.space), then its point, colour and the query's
place (core.maps.build). Nothing here imports Streamlit or anywidget."""
