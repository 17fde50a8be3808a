// What repositories need of a data source or a transaction's manager: plain SQL.
export type { Queryable } from '@gatehouse/core';
