/** One CSV record and the file line it starts on (1-based), so errors can point back at the file. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/**
 * Parses RFC 4180 CSV: fields separated by commas, records by CRLF or LF, fields optionally in double
 * quotes, a doubled quote inside quotes is one quote, quoted fields may hold commas and line breaks.
 * Blank lines are skipped. A leading byte order mark is ignored.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let fields: string[] = [];
  let field = '';
  let recordLine = 1;
  let quotedField = false;
  const endField = () => {
    fields.push(field);
    field = '';
    quotedField = false;
  };
  const endRecord = () => {
    endField();
    if (fields.length > 1 || fields[0] !== '') records.push({ line: recordLine, fields });
    fields = [];
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"' && field === '' && !quotedField) {
      // A quoted field: read to the closing quote.
      const start = line;
      i++;
      for (;;) {
        if (i >= text.length) throw new CsvError('unterminated quoted field', start);
        const q = text[i];
        if (q === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n') line++;
        field += q;
        i++;
      }
      quotedField = true;
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw new CsvError('unexpected character after a closing quote', line);
      }
      continue;
    }
    if (c === ',') {
      endField();
      i++;
    } else if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
    } else {
      if (quotedField) throw new CsvError('unexpected character after a closing quote', line);
      if (c === '"') throw new CsvError('a quote inside an unquoted field (quote the whole field and double the quote)', line);
      field += c;
      i++;
    }
  }
  if (field !== '' || fields.length > 0 || quotedField) endRecord();
  return records;
}

/** A data row keyed by the header names, with the file line it starts on. Empty cells are left out. */
export interface CsvRow {
  line: number;
  values: Record<string, string>;
}

/** The first record names the columns; every other record becomes an object keyed by those names. */
export function csvRows(text: string): CsvRow[] {
  const [header, ...records] = parseCsv(text);
  if (!header) return [];
  const names = header.fields.map((name) => name.trim());
  const missing = names.findIndex((name) => name === '');
  if (missing >= 0) throw new CsvError(`column ${missing + 1} of the header row has no name`, header.line);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate) throw new CsvError(`column "${duplicate}" appears twice in the header row`, header.line);
  return records.map((record) => {
    if (record.fields.length > names.length) {
      throw new CsvError(`${record.fields.length} fields but the header names ${names.length} columns`, record.line);
    }
    const values: Record<string, string> = {};
    record.fields.forEach((value, index) => {
      if (value !== '') values[names[index]!] = value;
    });
    return { line: record.line, values };
  });
}
