"""The anchor for the map canvas: the same browser drawing the same points in one raw WebGL2 frame (upload the
positions, draw them as points, read a pixel back so the frame is finished), with nothing else: the physical limit of
this machine's software WebGL."""

from __future__ import annotations

import base64

import numpy as np

PAGE = """<!doctype html><canvas id="c" width="%(width)d" height="%(height)d"></canvas><script>
const gl = document.getElementById("c").getContext("webgl2", { preserveDrawingBuffer: true });
const compile = (type, source) => {
  const shader = gl.createShader(type);
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  return shader;
};
const program = gl.createProgram();
gl.attachShader(program, compile(gl.VERTEX_SHADER, `#version 300 es
  in vec2 position; uniform float size;
  void main() { gl_Position = vec4(position, 0.0, 1.0); gl_PointSize = size; }`));
gl.attachShader(program, compile(gl.FRAGMENT_SHADER, `#version 300 es
  precision mediump float; out vec4 colour;
  void main() { colour = vec4(0.39, 0.43, 0.98, 1.0); }`));
gl.linkProgram(program);
gl.useProgram(program);
window.frame = (points, size) => {  // points: the positions in clip space, x then y interleaved
  const started = performance.now();
  const buffer = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.bufferData(gl.ARRAY_BUFFER, points, gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  gl.uniform1f(gl.getUniformLocation(program, "size"), size);
  gl.clearColor(1, 1, 1, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.drawArrays(gl.POINTS, 0, points.length / 2);
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  gl.deleteBuffer(buffer);
  return (performance.now() - started) / 1000;
};
</script>"""


def clip_space(coords: np.ndarray, width: int, height: int) -> np.ndarray:
    """Map coordinates fitted into the canvas as the map fits them (aspect kept, a small margin), as float32 x, y."""
    low, high = coords.min(axis=0), coords.max(axis=0)
    scale = 1.8 / (high - low).max() * np.array([min(1.0, height / width), min(1.0, width / height)])
    return ((coords - (low + high) / 2) * scale).astype(np.float32)


def raw_frame_s(browser, coords: np.ndarray, size: float, width: int, height: int, repeats: int = 3) -> float:
    """The best of `repeats` frames drawing `coords` as points of `size` pixels on a canvas of width x height."""
    page = browser.new_page(viewport={"width": width + 20, "height": height + 20})
    try:
        page.set_content(PAGE % {"width": width, "height": height})
        encoded = base64.b64encode(clip_space(coords, width, height).tobytes()).decode()
        page.evaluate("""(text) => { const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
            window.points = new Float32Array(bytes.buffer); }""", encoded)
        return min(page.evaluate(f"() => window.frame(window.points, {size})") for _ in range(repeats))
    finally:
        page.close()
