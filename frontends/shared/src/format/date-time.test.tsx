import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/create-i18n';
import { formatDateTime, useFormatDateTime } from './date-time';

const NOT_SET = '(Not set)';

describe('formatDateTime', () => {
  it('writes DD-MM-YYYY hh:mm:ss on a 24-hour clock in the given time zone', () => {
    expect(formatDateTime('2026-03-04T15:06:07Z', { notSet: NOT_SET, timeZone: 'Europe/Paris' })).toBe('04-03-2026 16:06:07');
    expect(formatDateTime('2026-07-04T23:30:00Z', { notSet: NOT_SET, timeZone: 'Europe/Berlin' })).toBe('05-07-2026 01:30:00');
    expect(formatDateTime('2026-01-09T00:05:09Z', { notSet: NOT_SET, timeZone: 'UTC' })).toBe('09-01-2026 00:05:09');
  });

  it('uses the user’s own time zone when none is given', () => {
    const date = new Date(2026, 11, 31, 8, 9, 10);
    expect(formatDateTime(date.toISOString(), { notSet: NOT_SET })).toBe('31-12-2026 08:09:10');
    expect(formatDateTime(date, { notSet: NOT_SET })).toBe('31-12-2026 08:09:10');
  });

  it('shows the "not set" text for an empty date, and a value that is no date as it came', () => {
    expect(formatDateTime(null, { notSet: NOT_SET })).toBe(NOT_SET);
    expect(formatDateTime(undefined, { notSet: NOT_SET })).toBe(NOT_SET);
    expect(formatDateTime('', { notSet: NOT_SET })).toBe(NOT_SET);
    expect(formatDateTime('soon', { notSet: NOT_SET })).toBe('soon');
  });
});

describe('useFormatDateTime', () => {
  function Probe({ value }: { value: string | null }) {
    const format = useFormatDateTime();
    return <p>{format(value)}</p>;
  }

  it.each([
    ['en', '(Not set)'],
    ['fr', '(Non défini)'],
    ['de', '(Nicht festgelegt)'],
  ] as const)('says "not set" in the interface language (%s)', (language, text) => {
    render(
      <I18nextProvider i18n={createI18n({ language })}>
        <Probe value={null} />
      </I18nextProvider>,
    );
    expect(screen.getByText(text)).toBeInTheDocument();
  });

  it('formats a date in the user’s time zone', () => {
    const date = new Date(2026, 2, 4, 10, 0, 0);
    render(
      <I18nextProvider i18n={createI18n({ language: 'en' })}>
        <Probe value={date.toISOString()} />
      </I18nextProvider>,
    );
    expect(screen.getByText('04-03-2026 10:00:00')).toBeInTheDocument();
  });
});
