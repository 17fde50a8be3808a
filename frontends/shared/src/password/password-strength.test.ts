import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loadStrengthEstimator, strengthLevel, usePasswordStrength, weaknessReason } from './password-strength';

const COMMON = 'Password1234!';

describe('password strength', () => {
  it('names the levels the pages show', () => {
    expect([0, 1, 2, 3, 4].map((score) => strengthLevel(score as 0 | 1 | 2 | 3 | 4))).toEqual(['weak', 'weak', 'fair', 'good', 'strong']);
  });

  it('estimates with the server’s dictionaries and words, and says why in the language asked for', { timeout: 30_000 }, async () => {
    const { estimatePasswordStrength } = await loadStrengthEstimator();
    const german = await estimatePasswordStrength(COMMON, { language: 'de' });
    expect(german.score).toBeLessThan(3);
    expect(weaknessReason(german)).toBe(
      'Dies weist Ähnlichkeit zu anderen oft verwendeten Passwörtern auf. Weitere Wörter, die weniger häufig vorkommen, hinzufügen. Nicht nur den ersten Buchstaben groß schreiben.',
    );
    expect((await estimatePasswordStrength(COMMON, { language: 'pt-PT' })).warning, 'Portugal reads Brazil’s').toBe('Isso é semelhante a uma senha comumente usada.');
    expect(await estimatePasswordStrength('tuba-Lantern-9-orbit-calm', { language: 'fr', userInputs: ['jane.doe'] })).toEqual({ score: 4, warning: null, suggestions: [] });

    expect((await estimatePasswordStrength('Jane.Doe2024!', { language: 'en' })).score, 'a stranger’s name').toBeGreaterThanOrEqual(3);
    const own = await estimatePasswordStrength('Jane.Doe2024!', { language: 'en', userInputs: ['jane.doe@example.com'] });
    expect(own.score, 'the user’s own').toBeLessThan(3);
    expect(own.warning).toBe('There should not be any personal or page related data.');
  });

  it('estimates as the password changes, in the page’s language, and not at all when disabled or empty', { timeout: 30_000 }, async () => {
    const { result, rerender } = renderHook(({ password, enabled }) => usePasswordStrength(password, 'fr-CA', ['ana'], enabled), {
      initialProps: { password: COMMON, enabled: true },
    });
    await waitFor(() => expect(result.current?.warning).toBe('Ce mot de passe est similaire à un mot de passe couramment utilisé.'), { timeout: 15_000 });
    rerender({ password: 'tuba-Lantern-9-orbit-calm', enabled: true });
    await waitFor(() => expect(result.current?.score).toBe(4));
    rerender({ password: '', enabled: true });
    expect(result.current).toBeUndefined();
    rerender({ password: COMMON, enabled: false });
    expect(result.current).toBeUndefined();
  });
});
