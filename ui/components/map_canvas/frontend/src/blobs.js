// Binary columns sent once each (positions, colour codes, a highlight bitmask), kept by their content key so that a
// rerun which changes only the view sends none of them again. Each blob's first KEY_BYTES bytes are its key.
const KEY_BYTES = 32;
const KEEP = 12; // blobs kept in the page: a few maps' worth (two compared maps hold up to eight)
const store = (globalThis.__explorerMapBlobs ||= { blobs: new Map(), waiting: new Map(), arrived: new Map() });

export function keepBlob(bytes) {
  const key = new TextDecoder().decode(bytes.subarray(0, KEY_BYTES));
  if (!store.blobs.has(key)) {
    store.arrived.set(key, performance.now()); // for make bench: from a blob's arrival to the map drawn
    // an aligned copy: Float32Array views need a byte offset that is a multiple of 4
    store.blobs.set(key, bytes.slice(KEY_BYTES).buffer);
    while (store.blobs.size > KEEP) {
      const oldest = store.blobs.keys().next().value;
      store.blobs.delete(oldest);
      store.arrived.delete(oldest);
    }
  }
  for (const resolve of store.waiting.get(key) ?? []) resolve(store.blobs.get(key));
  store.waiting.delete(key);
}

export function blob(key) {
  if (store.blobs.has(key)) return Promise.resolve(store.blobs.get(key));
  return new Promise((resolve) => {
    store.waiting.set(key, [...(store.waiting.get(key) ?? []), resolve]);
  });
}

export const arrivedAt = (key) => store.arrived.get(key);
