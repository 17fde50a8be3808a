import { DefaultNamingStrategy, type NamingStrategyInterface } from 'typeorm';

/** Entities name every column, constraint and index explicitly; this only covers join tables. */
export class SnakeNamingStrategy extends DefaultNamingStrategy implements NamingStrategyInterface {
  override tableName(className: string, customName?: string): string {
    return customName ?? className.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
  }
}
