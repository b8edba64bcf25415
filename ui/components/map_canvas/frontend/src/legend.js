// The legend beside the map: categories with their counts, each a button that hides or shows its points; or a
// colour scale for numbers.
export class Legend {
  constructor(element, changed) {
    this.element = element;
    this.changed = changed;
    this.hidden = new Set(); // colour codes whose points are hidden
  }

  show(legend, palette) {
    const key = JSON.stringify(legend);
    if (key === this.shown) return;
    this.shown = key;
    const codes = new Set(legend.items.map((item) => item.code));
    this.hidden = new Set([...this.hidden].filter((code) => codes.has(code)));
    this.element.replaceChildren();
    const title = document.createElement("div");
    title.className = "legend-title";
    title.textContent = legend.title;
    this.element.append(title);
    if (legend.scale) this.element.append(this.scale(legend.scale));
    if (legend.items.length && !legend.scale) {
      const hint = document.createElement("div");
      hint.className = "legend-hint";
      hint.textContent = "Click to hide or show";
      this.element.append(hint);
    }
    for (const item of legend.items) this.element.append(this.entry(item, palette[item.code][0]));
  }

  entry(item, colour) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "legend-item";
    button.setAttribute("aria-pressed", String(!this.hidden.has(item.code)));
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = colour;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = item.name;
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = item.count.toLocaleString("en");
    button.append(swatch, name, count);
    button.addEventListener("click", () => {
      if (this.hidden.has(item.code)) this.hidden.delete(item.code);
      else this.hidden.add(item.code);
      button.setAttribute("aria-pressed", String(!this.hidden.has(item.code)));
      this.changed();
    });
    return button;
  }

  scale({ stops, min, max }) {
    const box = document.createElement("div");
    box.className = "scale";
    const bar = document.createElement("div");
    bar.className = "scale-bar";
    bar.style.background = `linear-gradient(to top, ${stops.join(", ")})`;
    const ends = document.createElement("div");
    ends.className = "scale-ends";
    for (const value of [max, min]) {
      const end = document.createElement("span");
      end.textContent = value;
      ends.append(end);
    }
    box.append(bar, ends);
    return box;
  }
}
