/**
 * The cells of one line of the snapshot CSV dialect (RFC 4180, `,` and `"`, no line breaks inside cells) with
 * quoted cells, without csv-parse: calling csv-parse once per line converts each line to a Buffer and sets up
 * a parser, which was half the row-validation time of works.csv (one line in seven holds a quote).
 *
 * It accepts only what csv-parse (default options, relax_column_count) reads as exactly one record, with the
 * same cells (test/pipeline/csv-line.test.ts compares the two on generated lines). Anything else answers null,
 * and the caller asks csv-parse, whose message then names the problem.
 */
export function quotedLineCells(line: string): string[] | null {
  // A carriage return would be a record delimiter to csv-parse: leave such lines to it.
  if (line.includes('\r')) return null;
  const cells: string[] = [];
  const n = line.length;
  let i = 0;
  for (;;) {
    if (line.charCodeAt(i) === 34 /* " */) {
      let cell = '';
      let from = i + 1;
      for (;;) {
        const q = line.indexOf('"', from);
        if (q < 0) return null; // unclosed quote
        cell += line.slice(from, q);
        if (line.charCodeAt(q + 1) === 34) {
          cell += '"';
          from = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      cells.push(cell);
      if (i === n) return cells;
      if (line.charCodeAt(i) !== 44 /* , */) return null; // text after a closing quote
      i++;
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? n : comma;
      const cell = line.slice(i, end);
      if (cell.includes('"')) return null; // a quote inside an unquoted cell
      cells.push(cell);
      if (comma < 0) return cells;
      i = comma + 1;
    }
    if (i === n) {
      cells.push('');
      return cells;
    }
  }
}
