import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';
import './shell.css';

/** The console's waiting screen: a centred spinner, the slogan, and what is happening. */
export function Splash({ label }: { label?: string }) {
  const { t } = useTranslation('admin');
  return (
    <div className="admin-splash" role="status" aria-live="polite" aria-busy="true">
      <Spin size="large" />
      <p className="admin-splash__slogan">{t('shell.slogan')}</p>
      <p className="admin-splash__label">{label ?? t('shell.starting')}</p>
    </div>
  );
}

/** Before the console's phrases are loaded: the spinner alone. */
export function BareSplash() {
  return (
    <div className="admin-splash" role="status" aria-busy="true">
      <Spin size="large" />
    </div>
  );
}
