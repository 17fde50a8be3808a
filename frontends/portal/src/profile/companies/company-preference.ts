import { PREFERENCES_STORAGE_KEY } from '@gatehouse/frontend-shared';
import type { Company } from '../../api/portal-api';

type PreferenceStorage = Pick<Storage, 'getItem' | 'setItem'>;

// Reading `localStorage` throws when the browser blocks site data: the portal works without it.
function defaultStorage(): PreferenceStorage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

function readPreferences(storage: PreferenceStorage | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(PREFERENCES_STORAGE_KEY) ?? '{}');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The company kept in the preferences (the spec's `currentCompany`), if any. */
export function readStoredCompany(storage = defaultStorage()): Company | undefined {
  const { currentCompany } = readPreferences(storage);
  if (currentCompany === null || typeof currentCompany !== 'object') return undefined;
  const { id, title } = currentCompany as Record<string, unknown>;
  return typeof id === 'string' && typeof title === 'string' ? { id, title } : undefined;
}

/**
 * Keeps `company` as the `currentCompany` preference, beside the other preferences (the language);
 * null removes it.
 */
export function storeCompanyPreference(company: Company | null, storage = defaultStorage()): void {
  if (!storage) return;
  const { currentCompany: _previous, ...others } = readPreferences(storage);
  const preferences = company ? { ...others, currentCompany: { id: company.id, title: company.title } } : others;
  try {
    storage.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify(preferences));
  } catch {
    // A full or blocked storage keeps only the server's copy of the choice.
  }
}
