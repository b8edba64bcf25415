// A map file's rows (file.js): their ids, the search over their texts, and the CSV files made of them. Nothing here
// touches the page.
import { blake2bHex } from "blakejs/blake2b.js"; // blake2b alone: the package index brings blake2s too

const DIGEST_BYTES = 8; // core/data/rows.py: DIGEST_BYTES

/** Each text's row id as core/data/rows.py's text_row_ids gives it: its blake2b digest, then a colon and how many
 * rows of the same text came before it. */
export function textRowIds(texts) {
  const encoder = new TextEncoder();
  const seen = new Map();
  return texts.map((text) => {
    const digest = blake2bHex(encoder.encode(text), null, DIGEST_BYTES);
    const count = seen.get(digest) ?? 0;
    seen.set(digest, count + 1);
    return `${digest}:${count}`;
  });
}

/** Which texts contain `pattern`, case-insensitive, as plain text or a regular expression (as the Map page's
 * "Highlight texts containing"); a SyntaxError for a regular expression the browser does not read. */
export function matching(texts, pattern, regex) {
  const found = new Uint8Array(texts.length);
  if (!pattern) return found;
  if (regex) {
    const compiled = new RegExp(pattern, "iu");
    texts.forEach((text, i) => { found[i] = compiled.test(text) ? 1 : 0; });
  } else {
    const wanted = pattern.toLowerCase();
    texts.forEach((text, i) => { found[i] = text.toLowerCase().includes(wanted) ? 1 : 0; });
  }
  return found;
}

/** A highlight column's bytes: bit i, least significant first in each byte (contract.js: isHighlighted). */
export function bitmask(found) {
  const bits = new Uint8Array(Math.ceil(found.length / 8));
  found.forEach((on, i) => { if (on) bits[i >> 3] |= 1 << (i & 7); });
  return bits;
}

const FORMULA_START = ["=", "+", "-", "@", "\t", "\r"]; // core/data/export.py: FORMULA_START

const field = (value) => {
  let text = String(value);
  // a text that starts like a spreadsheet formula gets an apostrophe, as the app's CSVs (core/data/export.py: defuse)
  if (typeof value === "string" && FORMULA_START.some((start) => text.startsWith(start))) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** RFC 4180 CSV: a header, then a line per row. */
export const csv = (header, rows) => [header, ...rows].map((row) => row.map(field).join(",")).join("\r\n") + "\r\n";
