import { UserOutlined, WindowsFilled } from '@ant-design/icons';
import Button from 'antd/es/button';
import { useAccountTranslation } from '../use-account-translation';

export interface MethodChoiceProps {
  microsoftUrl: string;
  onLocal: () => void;
  /** Set when the user comes back from the form: the choice they left gets the focus. */
  autoFocus: boolean;
}

/** The two ways in: a local account, or the professional (Office 365) one. */
export function MethodChoice({ microsoftUrl, onLocal, autoFocus }: MethodChoiceProps) {
  const { t } = useAccountTranslation();
  return (
    <section aria-labelledby="account-choice-title">
      <h2 id="account-choice-title" className="account-step__title">
        {t('choice.heading')}
      </h2>
      <div className="account-choices">
        <Button size="large" block icon={<UserOutlined aria-hidden />} onClick={onLocal} autoFocus={autoFocus}>
          <span>
            <span className="account-choice__label">{t('choice.local')}</span>
            <span className="account-choice__hint">{t('choice.localHint')}</span>
          </span>
        </Button>
        <Button size="large" block icon={<WindowsFilled aria-hidden />} href={microsoftUrl}>
          <span>
            <span className="account-choice__label">{t('choice.microsoft')}</span>
            <span className="account-choice__hint">{t('choice.microsoftHint')}</span>
          </span>
        </Button>
      </div>
    </section>
  );
}
