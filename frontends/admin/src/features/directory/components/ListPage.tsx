import { PageHeader } from '../../../shell/PageHeader';
import { DataTable, type DataTableProps } from './DataTable';

export interface ListPageProps<T> extends Omit<DataTableProps<T>, 'label'> {
  /** The page's heading, only breadcrumb and the table's name. */
  title: string;
}

/** A page that is one list: the header over the table. */
export function ListPage<T extends object>({ title, ...table }: ListPageProps<T>) {
  return (
    <>
      <PageHeader title={title} breadcrumbs={[{ title }]} />
      <DataTable<T> label={title} {...table} />
    </>
  );
}
