import type { AppContext } from '../context.js';
import { findApplicationIcon } from './repository.js';

/** Shown when an application has no icon of its own. */
const DEFAULT_ICON = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="Application">
<rect width="64" height="64" rx="14" fill="#1d4ed8"/><rect x="14" y="14" width="15" height="15" rx="3" fill="#fff"/>
<rect x="35" y="14" width="15" height="15" rx="3" fill="#fff" opacity=".75"/><rect x="14" y="35" width="15" height="15" rx="3" fill="#fff" opacity=".75"/>
<rect x="35" y="35" width="15" height="15" rx="3" fill="#fff" opacity=".5"/></svg>`,
);
const ICON_TYPES = /^image\/(png|jpeg|gif|webp|svg\+xml|x-icon|vnd\.microsoft\.icon)$/;

/** An application's icon: uploaded bytes, a base64 data URL, or the default. */
export async function applicationIcon(context: AppContext, appId: string): Promise<{ body: Buffer; type: string; modified: Date | null }> {
  const row = await findApplicationIcon(context.dataSource, appId);
  if (row?.icon_data && row.icon_content_type && ICON_TYPES.test(row.icon_content_type)) {
    return { body: row.icon_data, type: row.icon_content_type, modified: row.modified_on };
  }
  const dataUrl = row?.icon ? /^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/=]+)$/.exec(row.icon) : null;
  if (dataUrl && ICON_TYPES.test(dataUrl[1]!)) return { body: Buffer.from(dataUrl[2]!, 'base64'), type: dataUrl[1]!, modified: row!.modified_on };
  return { body: DEFAULT_ICON, type: 'image/svg+xml', modified: null };
}

