// One ES module, every dependency inlined: Streamlit gives it to the page as the component's JavaScript.
import { defineConfig } from "vite";

export default defineConfig({
  build: {
    outDir: "dist",
    emptyOutDir: true,
    lib: { entry: "src/main.js", formats: ["es"], fileName: () => "map_canvas.js" },
    minify: true,
    target: "es2020",
  },
});
