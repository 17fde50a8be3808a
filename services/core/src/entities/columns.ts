import { Column, CreateDateColumn, UpdateDateColumn, type ColumnOptions } from 'typeorm';

/**
 * Column helpers. Every column names its SQL type explicitly: the test runner compiles with
 * esbuild, which emits no decorator metadata for TypeORM to infer types from.
 */
export const CreatedAt = (name = 'created_at') =>
  CreateDateColumn({ name, type: 'timestamptz', default: () => 'now()' });

export const ModifiedOn = (name = 'modified_on') =>
  UpdateDateColumn({ name, type: 'timestamptz', default: () => 'now()' });

export const Text = (name: string, options: ColumnOptions = {}) => Column({ name, type: 'text', ...options });

export const Varchar = (name: string, length: number, options: ColumnOptions = {}) =>
  Column({ name, type: 'varchar', length, ...options });

export const Bool = (name: string, defaultValue = false) =>
  Column({ name, type: 'boolean', default: defaultValue });

export const Uuid = (name: string, options: ColumnOptions = {}) => Column({ name, type: 'uuid', ...options });

export const Timestamp = (name: string, options: ColumnOptions = {}) =>
  Column({ name, type: 'timestamptz', ...options });

export const Json = (name: string, options: ColumnOptions = {}) => Column({ name, type: 'jsonb', ...options });

export const TextArray = (name: string, options: ColumnOptions = {}) =>
  Column({ name, type: 'text', array: true, default: () => "'{}'", ...options });

export const Int = (name: string, options: ColumnOptions = {}) => Column({ name, type: 'integer', ...options });

/** SQL `IN (...)` list for a CHECK constraint over string values. */
export const oneOf = (column: string, values: readonly string[]) =>
  `"${column}" IN (${values.map((v) => `'${v}'`).join(', ')})`;
