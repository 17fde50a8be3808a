import AppstoreOutlined from '@ant-design/icons/AppstoreOutlined';
import { useState } from 'react';
import { applicationIconUrl } from '../api/portal-api';

export interface AppIconProps {
  appId: string;
  size: number;
}

/**
 * An application's icon. It is decorative (the title is next to it), and a failed load is silent
 * (the spec): a generic glyph takes its place in the same box, so nothing moves.
 */
export function AppIcon({ appId, size }: AppIconProps) {
  const [failed, setFailed] = useState(false);
  return (
    <span className="app-icon" style={{ width: size, height: size }} aria-hidden="true">
      {failed ? (
        <AppstoreOutlined style={{ fontSize: size * 0.6 }} aria-hidden />
      ) : (
        <img src={applicationIconUrl(appId)} alt="" width={size} height={size} loading="lazy" onError={() => setFailed(true)} />
      )}
    </span>
  );
}
