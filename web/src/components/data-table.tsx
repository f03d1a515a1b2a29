// A read-only table: its columns say their heading and how a row's cell reads. The edit table of
// the back-office (features/backoffice/edit-table.tsx) is its writable twin.
import type { ReactNode } from 'react';

export interface DataColumn<Row> {
  label: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

export function DataTable<Row extends { id: number }>({ columns, rows }: { columns: DataColumn<Row>[]; rows: Row[] }) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label}>{column.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((column) => (
                <td key={column.label} className={column.className}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
