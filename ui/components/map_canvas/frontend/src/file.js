// The map canvas in one HTML file (core/maps/html.py writes it), its third host beside Streamlit's (main.js) and a
// notebook's (widget.js): no server and no network. The file holds the view and its columns as base64, and the
// texts, the values hovering shows and the row ids gzip'd (decoded here by the browser's DecompressionStream). What
// Python answers in the other hosts is answered here: a hover's text, a selection (listed below the map, downloadable
// as CSV), a search's highlight, and tags, downloadable with their row ids for the app to read back.
// Every text is data: it reaches the page as textContent, never as markup.
import { MapCanvas } from "./canvas.js";
import { INK, font, FONT_PX } from "./constants.js";
import { bitmask, csv, matching, textRowIds } from "./rows.js";

export const DATA_ID = "explorer-map-data"; // core/maps/html.py: DATA_ID
const LISTED = 100; // selected texts listed below the map (all of them go into the CSV)
const SEARCH_DELAY_MS = 200;
const HOVER_CHARS = 500; // core/plots/map_canvas.py: hover_line's limit
const MAX_TAG_NAME = 60; // core/data/labels.py: MAX_NAME

const PAGE_STYLE = `
body { margin: 16px 24px; font: ${font(400, FONT_PX)}; color: ${INK}; background: white; }
h1 { font-size: 20px; margin: 0 0 8px; } h2 { font-size: 16px; margin: 16px 0 6px; }
.row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 6px 0; }
input[type=text], input[type=search] { font: inherit; padding: 3px 6px; border: 1px solid #868e96; border-radius: 6px; }
button { font: inherit; padding: 3px 10px; border: 1px solid #868e96; border-radius: 6px; background: white;
  color: ${INK}; cursor: pointer; }
button:focus-visible, input:focus-visible { outline: 2px solid #c2255c; outline-offset: 1px; }
.note { color: #495057; }
table { border-collapse: collapse; margin-top: 6px; }
th, td { text-align: left; padding: 2px 8px; border-bottom: 1px solid #dee2e6; vertical-align: top; }
td.text { max-width: 640px; white-space: pre-wrap; }
`;

const element = (tag, props = {}, ...children) => {
  const made = Object.assign(document.createElement(tag), props);
  made.append(...children);
  return made;
};

function decoded(base64) {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

async function unzipped(base64) {
  const stream = new Blob([decoded(base64)]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

function download(name, text) {
  const link = element("a", { href: URL.createObjectURL(new Blob([text], { type: "text/csv" })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

// core/plots/map_canvas.py: point_size and highlight_size, for a search's highlight
const pointSize = (n) => Math.min(6, Math.max(1.5, 9 - 1.3 * Math.log10(Math.max(n, 1))));
const highlightSize = (n, lit) => Math.max(1.6 * pointSize(n), pointSize(lit));

class MapFile {
  constructor(root, data) {
    this.data = data;
    this.view = { ...data.view, code: "", hover: null, answered: 0, element: "file", selected: null };
    this.n = this.view.n;
    const { highlight, highlighted, highlightSize: size } = this.view;
    this.unsearched = { highlight, highlighted, highlightSize: size };
    this.answered = 0;
    this.selected = [];
    this.tags = new Map(Object.entries(data.tags).map(([name, rows]) => [name, new Set(rows)]));
    this.blobs = new Map();
    this.arrived = new Map();
    for (const [key, base64] of Object.entries(data.columns)) this.keep(key, decoded(base64).buffer);
    // the texts are not needed for the first frame: decoded beside it
    this.rows = Promise.all([unzipped(data.texts), unzipped(data.values),
      data.rowIds ? unzipped(data.rowIds) : null]).then(([texts, values, ids]) => ({ texts, values, ids }));
    this.build(root);
    this.map = new MapCanvas(this.mapRoot, {
      columns: { blob: (key) => Promise.resolve(this.blobs.get(key)), arrivedAt: (key) => this.arrived.get(key) },
      select: (rows) => this.selectionMade(rows),
      askHover: (row) => this.hoverAsked(row),
    });
  }

  keep(key, buffer) {
    this.blobs.set(key, buffer);
    this.arrived.set(key, performance.now());
  }

  build(root) {
    document.head.append(element("style", { textContent: PAGE_STYLE }));
    this.search = element("input", { type: "search", id: "map-search" });
    this.regex = element("input", { type: "checkbox", id: "map-regex" });
    this.found = element("span", { className: "note", role: "status" });
    this.mapRoot = element("div").attachShadow({ mode: "open" });
    this.count = element("p", { role: "status" });
    this.table = element("table");
    this.tagName = element("input", { type: "text", id: "map-tag-name", maxLength: MAX_TAG_NAME });
    this.tagNote = element("span", { className: "note", role: "status" });
    this.tagList = element("ul");
    const button = (text, action) => {
      const made = element("button", { type: "button", textContent: text });
      made.addEventListener("click", action);
      return made;
    };
    root.append(
      element("h1", { textContent: this.view.label }),
      element("div", { className: "row" },
        element("label", { htmlFor: "map-search", textContent: "Search" }), this.search,
        element("label", {}, this.regex, " Regular expression"), this.found),
      this.mapRoot.host,
      element("p", { className: "note", textContent: "Each point is one text; hover for it. Drag to pan, scroll "
        + "to zoom, click a point or use Box or Lasso to select; the legend hides and shows categories. Only "
        + "closeness means something: the axes have no units." }),
      element("h2", { textContent: "Selection" }), this.count,
      element("div", { className: "row" }, button("Download the selection as CSV", () => this.downloadSelection())),
      this.table,
      element("h2", { textContent: "Tags" }),
      element("div", { className: "row" },
        element("label", { htmlFor: "map-tag-name", textContent: "Tag name" }), this.tagName,
        button("Tag the selection", () => this.tagSelection()), this.tagNote),
      this.tagList,
      element("div", { className: "row" }, button("Download the tags as CSV", () => this.downloadTags())),
      element("p", { className: "note", textContent: "Read the tags back in the app: Map → Tags → upload this CSV." }),
      element("p", { className: "note", textContent: this.data.about }));
    let timer = 0;
    const searched = () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.searched(), SEARCH_DELAY_MS);
    };
    this.search.addEventListener("input", searched);
    this.regex.addEventListener("change", searched);
    this.showSelection();
    this.showTags();
  }

  async hoverAsked(row) {
    const { texts, values } = await this.rows;
    const text = texts[row];
    const body = text.length <= HOVER_CHARS ? text : [...text].slice(0, HOVER_CHARS - 1).join("") + "…";
    const thumbnail = this.data.thumbnails?.[row]; // a picture's JPEG, in base64
    this.map.hoverAnswered({ row, text: `#${row} · ${this.data.valueTitle}: ${values[row]}\n${body}`,
      image: thumbnail ? `data:image/jpeg;base64,${thumbnail}` : null });
  }

  selectionMade(rows) {
    this.selected = rows;
    this.showSelection();
    setTimeout(() => this.map.answerArrived(++this.answered)); // drawn now: there is no one else to ask
  }

  async showSelection() {
    const rows = this.selected;
    this.count.textContent = rows.length
      ? `${rows.length.toLocaleString("en")} selected${rows.length > LISTED ? `, the first ${LISTED} listed` : ""}.`
      : "Nothing selected: click a point, or use Box or Lasso.";
    const { texts, values } = await this.rows;
    if (rows !== this.selected) return;
    const head = element("tr", {}, ...["#", "text", this.data.valueTitle].map((name) =>
      element("th", { scope: "col", textContent: name })));
    this.table.replaceChildren(...(rows.length ? [element("thead", {}, head)] : []),
      element("tbody", {}, ...rows.slice(0, LISTED).map((row) => element("tr", {},
        element("td", { textContent: String(row) }), element("td", { className: "text", textContent: texts[row] }),
        element("td", { textContent: values[row] })))));
  }

  async rowIds() {
    const rows = await this.rows;
    rows.ids ??= textRowIds(rows.texts);
    return rows.ids;
  }

  /** x and y in the map's units (the positions column holds them centred and scaled into [-1, 1]). */
  place(row) {
    const positions = new Float32Array(this.blobs.get(this.view.positions));
    const { scale, centre } = this.data.place;
    return [positions[row] / scale + centre[0], positions[this.n + row] / scale + centre[1]];
  }

  async downloadSelection() {
    const [{ texts, values }, ids] = await Promise.all([this.rows, this.rowIds()]);
    const rows = this.selected.map((row) => [ids[row], texts[row], values[row], ...this.place(row)]);
    download("map-selection.csv", csv(["row_id", "text", this.data.valueTitle, "x", "y"], rows));
  }

  tagSelection() {
    const name = this.tagName.value.split(/\s+/).filter(Boolean).join(" ");
    if (!name) {
      this.tagNote.textContent = "A tag needs a name: type one, such as “questions” or “possible mislabel”.";
    } else if (!this.selected.length) {
      this.tagNote.textContent = "Select some points first: click one, or use Box or Lasso.";
    } else {
      const rows = this.tags.get(name) ?? new Set();
      for (const row of this.selected) rows.add(row);
      this.tags.set(name, rows);
      this.tagNote.textContent = `“${name}” now has ${rows.size.toLocaleString("en")} texts.`;
      this.showTags();
    }
  }

  showTags() {
    this.tagList.replaceChildren(...[...this.tags].map(([name, rows]) => {
      const remove = element("button", { type: "button", textContent: "Remove" });
      remove.setAttribute("aria-label", `Remove the tag “${name}”`);
      remove.addEventListener("click", () => {
        this.tags.delete(name);
        this.showTags();
      });
      return element("li", {}, `${name}: ${rows.size.toLocaleString("en")} texts `, remove);
    }));
  }

  async downloadTags() {
    if (!this.tags.size) {
      this.tagNote.textContent = "There are no tags yet: select points and press “Tag the selection”.";
      return;
    }
    const [{ texts }, ids] = await Promise.all([this.rows, this.rowIds()]);
    const tags = [...this.tags];
    const rows = texts.map((text, i) => [ids[i], text, ...tags.map(([, marked]) => marked.has(i))]);
    download("map-tags.csv", csv(["row_id", "text", ...tags.map(([name]) => `tag_${name}`)], rows));
  }

  async searched() {
    const pattern = this.search.value;
    const { texts } = await this.rows;
    let found;
    try {
      found = matching(texts, pattern, this.regex.checked);
    } catch (err) {
      this.found.textContent = `“${pattern}” is not a regular expression the browser reads (${err.message}); fix it `
        + "or search for plain text.";
      return;
    }
    const lit = found.reduce((sum, on) => sum + on, 0);
    this.found.textContent = pattern ? `${lit.toLocaleString("en")} texts found` : "";
    let shown = this.unsearched; // no search: the highlight the map was saved with, if any
    if (pattern) {
      const key = `search ${pattern} ${this.regex.checked}`;
      this.keep(key, bitmask(found).buffer);
      shown = { highlight: key, highlighted: lit, highlightSize: highlightSize(this.n, lit) };
    }
    this.view = { ...this.view, ...shown };
    await this.map.update(this.view);
  }
}

const data = JSON.parse(document.getElementById(DATA_ID).textContent);
const opened = new MapFile(document.body.appendChild(element("main")), data);
opened.map.update(opened.view);
