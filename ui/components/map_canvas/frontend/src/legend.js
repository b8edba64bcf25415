// The legend beside the map: categories with their counts, each a button that hides or shows its points; or a
// colour scale for numbers.
const element = (tag, className, text = "") =>
  Object.assign(document.createElement(tag), { className, textContent: text });

export class Legend {
  constructor(container, changed) {
    this.element = container;
    this.changed = changed;
    this.hidden = new Set(); // colour codes whose points are hidden
  }

  show(legend, palette) {
    const key = JSON.stringify(legend);
    if (key === this.shown) return;
    this.shown = key;
    const codes = new Set(legend.items.map((item) => item.code));
    this.hidden = new Set([...this.hidden].filter((code) => codes.has(code)));
    this.element.replaceChildren(element("div", "legend-title", legend.title));
    if (legend.scale) this.element.append(this.scale(legend.scale));
    else if (legend.items.length) this.element.append(element("div", "legend-hint", "Click to hide or show"));
    for (const item of legend.items) this.element.append(this.entry(item, palette[item.code][0]));
  }

  entry(item, colour) {
    const button = element("button", "legend-item");
    button.type = "button";
    button.setAttribute("aria-pressed", String(!this.hidden.has(item.code)));
    const swatch = element("span", "swatch");
    swatch.style.background = colour;
    const count = element("span", "count", item.count.toLocaleString("en"));
    button.append(swatch, element("span", "name", item.name), count);
    button.addEventListener("click", () => {
      if (this.hidden.has(item.code)) this.hidden.delete(item.code);
      else this.hidden.add(item.code);
      button.setAttribute("aria-pressed", String(!this.hidden.has(item.code)));
      this.changed();
    });
    return button;
  }

  scale({ stops, min, max }) {
    const bar = element("div", "scale-bar");
    bar.style.background = `linear-gradient(to top, ${stops.join(", ")})`;
    const ends = element("div", "scale-ends");
    ends.append(element("span", "", max), element("span", "", min));
    const box = element("div", "scale");
    box.append(bar, ends);
    return box;
  }
}
