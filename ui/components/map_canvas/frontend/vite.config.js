// Three ES modules from one canvas, each with every dependency inlined: map_canvas.js, which Streamlit's loader imports
// (src/main.js), map_widget.js, a notebook's anywidget (src/widget.js), and map_file.js, inlined in a map saved as one
// HTML file (src/file.js). A module that imports another file cannot be loaded from a string, as every host loads
// them, so each is a build of its own: `npm run build` makes all three.
import { defineConfig } from "vite";

const HOSTS = {
  streamlit: { entry: "src/main.js", file: "map_canvas.js" },
  widget: { entry: "src/widget.js", file: "map_widget.js" },
  file: { entry: "src/file.js", file: "map_file.js" },
};

export default defineConfig(({ mode }) => {
  const host = HOSTS[mode] ?? HOSTS.streamlit;
  return {
    build: {
      outDir: "dist",
      emptyOutDir: host === HOSTS.streamlit, // the first build empties dist/, the second adds to it
      lib: { entry: host.entry, formats: ["es"], fileName: () => host.file },
      minify: true,
      target: "es2020",
    },
  };
});
