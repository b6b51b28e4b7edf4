/** A table's header row: one column heading per name. */
export function ColumnHeads({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr className="border-sand border-b">
        {columns.map((name, i) => (
          <th key={name} scope="col" className={i === columns.length - 1 ? 'py-2' : 'py-2 pr-4'}>
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
