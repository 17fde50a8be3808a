import CopyOutlined from '@ant-design/icons/CopyOutlined';
import Button from 'antd/es/button';
import Input from 'antd/es/input/Input';
import { useId } from 'react';
import type { Feedback } from '../../directory/components/feedback';
import { useScimTranslation } from './use-scim-translation';

export interface CopyFieldProps {
  /** The value's visible label. */
  label: string;
  value: string;
  /** The copy button's accessible name, when "Copy" alone would not say what it copies. */
  copyLabel?: string;
  /** The toast once copied. */
  copied: string;
  feedback: Feedback;
}

/** A labelled read-only value (a token, the SCIM base URL) beside a copy button; selected whole on focus. */
export function CopyField({ label, value, copyLabel, copied, feedback }: CopyFieldProps) {
  const { t } = useScimTranslation();
  const id = useId();
  // Without a clipboard (a page not served over https), the value is still there to select.
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      feedback.success(copied);
    } catch {
      feedback.error(t('copy.failed'));
    }
  };

  return (
    <div className="scim-copy">
      <label className="scim-copy__label" htmlFor={id}>
        {label}
      </label>
      <div className="scim-copy__value">
        <Input id={id} readOnly value={value} spellCheck={false} onFocus={(event) => event.target.select()} />
        <Button icon={<CopyOutlined />} aria-label={copyLabel} onClick={() => void copy()}>
          {t('copy.copy')}
        </Button>
      </div>
    </div>
  );
}
