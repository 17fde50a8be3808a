/**
 * The total of a list page read with `count(*) OVER () AS total`: every row carries it, except
 * when the page asked for lies past the end; only then is it counted again (an empty first page
 * means there is nothing at all).
 */
export async function listTotal(rows: ReadonlyArray<{ total?: string | number }>, skip: number, recount: () => Promise<number>): Promise<number> {
  if (rows.length > 0) return Number(rows[0]!.total);
  return skip === 0 ? 0 : recount();
}
