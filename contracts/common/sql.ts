/** A SQL string literal (single quotes doubled). The one quoting rule for values put into SQL text. */
export const lit = (s: string): string => `'${s.replaceAll("'", "''")}'`;
