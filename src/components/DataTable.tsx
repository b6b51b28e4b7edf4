// The staff screens' one table: rows and columns on a wide screen, a stack of cards on a phone.
import type { ReactNode } from 'react';

export interface Column<T> {
  head: string;
  cell: (row: T) => ReactNode;
  /** Classes for this column's cells, e.g. 'whitespace-nowrap' or a colour. */
  className?: string;
}

interface DataTableProps<T> {
  caption: ReactNode;
  /** Shown to screen readers only (the section's heading already says it). */
  captionHidden?: boolean;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  /** What an empty table says; without it, an empty table is not shown at all. */
  empty?: string;
}

// Below the sm breakpoint every row is a card and every cell carries its column's heading (from
// data-label), so nothing runs off a 360 px screen. The roles are written out because a table
// restyled as blocks loses its table semantics in some browsers.
const cellPhone =
  'max-sm:block max-sm:py-0.5 max-sm:pr-0 max-sm:before:mr-2 max-sm:before:font-semibold max-sm:before:text-ink max-sm:before:content-[attr(data-label)":"]';

export function DataTable<T>({ caption, captionHidden, columns, rows, rowKey, empty }: DataTableProps<T>) {
  if (rows.length === 0 && empty === undefined) return null;
  return (
    <table role="table" className="w-full text-left text-sm max-sm:block">
      <caption className={captionHidden ? 'sr-only' : 'text-ink mb-2 text-left font-semibold max-sm:block'}>
        {caption}
      </caption>
      <thead role="rowgroup" className="max-sm:sr-only">
        <tr role="row" className="border-sand border-b">
          {columns.map((column, i) => (
            <th
              key={column.head}
              role="columnheader"
              scope="col"
              className={i === columns.length - 1 ? 'py-2' : 'py-2 pr-4'}
            >
              {column.head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup" className="max-sm:block max-sm:space-y-3">
        {rows.length === 0 ? (
          <tr role="row" className="max-sm:block">
            <td role="cell" colSpan={columns.length} className="text-muted py-3 max-sm:block">
              {empty}
            </td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr
              key={rowKey(row)}
              role="row"
              className="border-sand border-b align-top max-sm:block max-sm:rounded-xl max-sm:border max-sm:bg-white max-sm:p-4"
            >
              {columns.map((column, i) => (
                <td
                  key={column.head}
                  role="cell"
                  data-label={column.head}
                  className={`${i === columns.length - 1 ? 'py-2' : 'py-2 pr-4'} ${cellPhone} ${column.className ?? ''}`}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
