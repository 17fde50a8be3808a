import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { selectIsBusy } from '../store/store';

/** A small spinner in the top bar while any API call is under way. */
export function BusyIndicator() {
  const { t } = useTranslation('portal');
  const busy = useSelector(selectIsBusy);
  return (
    <span className="shell-busy" role="status">
      {busy && (
        <>
          <Spin size="small" />
          <span className="visually-hidden">{t('shell.busy')}</span>
        </>
      )}
    </span>
  );
}
