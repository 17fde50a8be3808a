import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import { APPLICATION_ICON_IMAGE_PATTERN, APPLICATION_LIMITS } from '@gatehouse/contracts';
import Button from 'antd/es/button';
import Upload from 'antd/es/upload';
import { useState } from 'react';
import { useApplicationsTranslation } from './use-applications-translation';

/** The raster types an icon may be uploaded as (no SVG: it could carry script). */
const ICON_TYPES = 'image/png,image/jpeg,image/gif,image/webp,image/x-icon,image/vnd.microsoft.icon';

/** A file as a base64 data URL. */
function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable file'));
    reader.readAsDataURL(file);
  });
}

export interface IconUploadProps {
  /** A new image (data URL), null: the uploaded one is removed, undefined: as stored. */
  value?: string | null;
  onChange?: (value: string | null | undefined) => void;
  /** Where the stored icon is served, when the application has an uploaded one. */
  storedUrl?: string;
  /** The application's display name, for the preview's text alternative. */
  name: string;
  disabled?: boolean;
}

/** The uploaded icon of an application: a preview, an upload button and a remove button. */
export function IconUpload({ value, onChange, storedUrl, name, disabled }: IconUploadProps) {
  const { t } = useApplicationsTranslation();
  const [invalid, setInvalid] = useState(false);
  const shown = typeof value === 'string' ? value : value === undefined ? storedUrl : undefined;
  const limitKb = APPLICATION_LIMITS.iconBytes / 1024;

  const choose = async (file: File) => {
    const dataUrl = await readAsDataUrl(file);
    const fits = file.size > 0 && file.size <= APPLICATION_LIMITS.iconBytes && APPLICATION_ICON_IMAGE_PATTERN.test(dataUrl);
    setInvalid(!fits);
    if (fits) onChange?.(dataUrl);
  };

  return (
    <div className="applications-icon">
      {shown ? <img className="applications-icon__preview" src={shown} alt={t('form.iconPreview', { name })} /> : null}
      <Upload
        accept={ICON_TYPES}
        showUploadList={false}
        disabled={disabled}
        beforeUpload={(file) => {
          void choose(file);
          // Read here, sent with the form: nothing is uploaded on its own.
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} disabled={disabled}>
          {t('form.iconUpload')}
        </Button>
      </Upload>
      {shown && !disabled ? (
        <Button
          icon={<DeleteOutlined />}
          onClick={() => {
            setInvalid(false);
            onChange?.(storedUrl ? null : undefined);
          }}
        >
          {t('form.iconRemove')}
        </Button>
      ) : null}
      {invalid ? (
        <div role="alert" className="ant-form-item-explain-error">
          {t('form.iconInvalid', { limit: limitKb })}
        </div>
      ) : null}
    </div>
  );
}
