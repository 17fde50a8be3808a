import UploadOutlined from '@ant-design/icons/UploadOutlined';
import type { AvatarUploaded } from '@gatehouse/contracts';
import { ApiError, apiErrorMessage, authorizedFetch, readErrorBody, useApiDependencies, type ApiDependencies } from '@gatehouse/frontend-shared';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Typography from 'antd/es/typography';
import type { TFunction } from 'i18next';
import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth, useProfile } from '../../auth/auth-context';
import {
  AVATAR_ACCEPT,
  AVATAR_MAX_BYTES,
  AVATAR_SIZE,
  AVATAR_UPLOAD_PATH,
  defaultAvatarUrl,
  resizedAvatarUrl,
  useAvatarUrl,
} from './avatar-url';
import './avatar.css';

const LIMIT_TEXT = `${AVATAR_MAX_BYTES / (1024 * 1024)} MB`;

export interface AvatarUploadProps {
  /** Whose picture to show; the signed-in user's e-mail by default. */
  email?: string;
  /**
   * The picture's address as the profile gives it, with its version: shown instead of the bare
   * address built from the e-mail, which the browser may still hold from before an upload.
   */
  src?: string;
  /** The side of the picture shown, in pixels (the spec's 180 by default). */
  size?: number;
  /** Called with the new picture's URL once it is uploaded (the shell may refresh its own). */
  onUploaded?: (url: string) => void;
}

type Feedback = { type: 'success' | 'error'; text: string };

/** Sends `file` as the new picture; resolves with its URL, or rejects with an ApiError carrying the message to show. */
async function sendPicture(dependencies: ApiDependencies, file: File, t: TFunction<'translation'>): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await authorizedFetch(dependencies, AVATAR_UPLOAD_PATH, { method: 'POST', body: form });
  if (!response.ok) {
    const body = await readErrorBody(response);
    throw new ApiError(response.status, apiErrorMessage(response.status, body, t), body.code);
  }
  return ((await response.json()) as AvatarUploaded).url;
}

/**
 * The user's picture and its upload button (the profile page): the current picture (the default
 * one when it cannot be shown), a file picker for images, a size check before sending, "Image
 * uploaded successfully", and the new picture shown at once (its URL carries a new version).
 */
export function AvatarUpload({ email, src, size = AVATAR_SIZE, onUploaded }: AvatarUploadProps) {
  const { t } = useTranslation('portal');
  const { t: common } = useTranslation();
  const dependencies = useApiDependencies(useAuth());
  const profile = useProfile();
  const built = useAvatarUrl(src ? undefined : (email ?? profile?.email), size);
  const current = src ? resizedAvatarUrl(src, size) : built;
  const input = useRef<HTMLInputElement>(null);
  const [uploaded, setUploaded] = useState<string>();
  const [broken, setBroken] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>();

  const source = uploaded ?? current;
  const shown = source === undefined || source === broken ? defaultAvatarUrl(size) : source;

  async function upload(file: File) {
    if (file.size > AVATAR_MAX_BYTES) {
      setFeedback({ type: 'error', text: t('avatar.tooLarge', { limit: LIMIT_TEXT }) });
      return;
    }
    setBusy(true);
    setFeedback(undefined);
    try {
      const url = await sendPicture(dependencies, file, common);
      setUploaded(resizedAvatarUrl(url, size));
      setFeedback({ type: 'success', text: t('avatar.success') });
      onUploaded?.(url);
    } catch (failure) {
      // A network failure has no message of ours to show.
      setFeedback({ type: 'error', text: failure instanceof ApiError ? failure.message : t('avatar.failed') });
    } finally {
      setBusy(false);
    }
  }

  function picked(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // The same file may be picked again after a refusal.
    event.target.value = '';
    if (file) void upload(file);
  }

  return (
    <div className="avatar-upload">
      <img
        className="avatar-upload__picture"
        src={shown}
        alt={t('avatar.alt')}
        width={size}
        height={size}
        onError={() => setBroken(source)}
      />
      <div className="avatar-upload__actions">
        <input ref={input} type="file" accept={AVATAR_ACCEPT} hidden onChange={picked} data-testid="avatar-file" />
        <Button icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()}>
          {t('avatar.upload')}
        </Button>
        <Typography.Text type="secondary">{t('avatar.hint', { limit: LIMIT_TEXT })}</Typography.Text>
        {feedback && <Alert type={feedback.type} title={feedback.text} showIcon role={feedback.type === 'error' ? 'alert' : 'status'} />}
      </div>
    </div>
  );
}

export default AvatarUpload;
