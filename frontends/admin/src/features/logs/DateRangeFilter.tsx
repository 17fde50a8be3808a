import DatePicker from 'antd/es/date-picker';
import type { ListStateHook } from '../directory/components/list-state';
import { disabledEnd, disabledStart, fromApiDate, LOG_DATE_FORMAT, rangeEnd, rangeStart } from './date-range';
import { useLogsTranslation } from './use-logs-translation';

/**
 * A tab's date range, as two pickers: From and To, each refusing the days the other makes
 * impossible (and the days to come). Kept in the list's filters as the API takes them.
 */
export function DateRangeFilter({ list: [state, setState] }: { list: ListStateHook }) {
  const { t } = useLogsTranslation();
  const start = fromApiDate(state.filters.startDate);
  const end = fromApiDate(state.filters.endDate);
  const set = (name: 'startDate' | 'endDate', value: string) => setState({ filters: { ...state.filters, [name]: value } });
  return (
    <>
      <DatePicker
        className="logs-date"
        aria-label={t('filters.from')}
        placeholder={t('filters.from')}
        format={LOG_DATE_FORMAT}
        value={start}
        disabledDate={(day) => disabledStart(day, end)}
        defaultPickerValue={end ?? undefined}
        onChange={(day) => set('startDate', day ? rangeStart(day) : '')}
      />
      <DatePicker
        className="logs-date"
        aria-label={t('filters.to')}
        placeholder={t('filters.to')}
        format={LOG_DATE_FORMAT}
        value={end}
        disabledDate={(day) => disabledEnd(day, start)}
        defaultPickerValue={start ?? undefined}
        onChange={(day) => set('endDate', day ? rangeEnd(day) : '')}
      />
    </>
  );
}
