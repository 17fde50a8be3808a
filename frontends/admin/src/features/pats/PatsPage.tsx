import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toListQuery, useListState } from '../directory/components/list-state';
import { NewPatDialog } from './NewPatDialog';
import { PatCreatedDialog } from './PatCreatedDialog';
import { PatsTable } from './PatsTable';
import { useMyPatsQuery, type CreatedPersonalAccessToken } from './pats-api';

/** Where the list's query is remembered (the pattern of the other lists' keys). */
export const PATS_LIST_KEY = 'IDENTITY-PATS-LIST';

/**
 * /admin/pats: the caller's personal access tokens, the New PAT dialog, and the PAT created dialog
 * that shows a new token's value once. The value lives in this page's state only while that
 * dialog is open: the creation's answer is removed from the store as soon as it arrives.
 */
export default function PatsPage() {
  const { t } = useTranslation('admin');
  const list = useListState(PATS_LIST_KEY, { sort: { field: 'name', direction: 'asc' } });
  const tokens = useMyPatsQuery(toListQuery(list[0]));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedPersonalAccessToken>();

  return (
    <>
      <PatsTable
        title={t('menu.pats')}
        list={list}
        tokens={tokens}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {t('pats.newPat')}
          </Button>
        }
      />
      {creating ? (
        <NewPatDialog
          onClose={() => setCreating(false)}
          onCreated={(token) => {
            setCreating(false);
            setCreated(token);
          }}
        />
      ) : null}
      {created ? <PatCreatedDialog token={created} onClose={() => setCreated(undefined)} /> : null}
    </>
  );
}
