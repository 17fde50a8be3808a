import { useTranslation } from 'react-i18next';
import { toListQuery, useListState } from '../directory/components/list-state';
import { UserSelect } from '../directory/components/selects';
import { PatsTable } from './PatsTable';
import { useAllPatsQuery } from './pats-api';

/** /admin/control-pats (God): every user's personal access tokens, filtered by owner, each deletable. */
export default function ControlPatsPage() {
  const { t } = useTranslation('admin');
  // Not remembered: the owner filter holds a user id, which the picker could not name on a later visit.
  const list = useListState(undefined, { sort: { field: 'name', direction: 'asc' } });
  const [state, setState] = list;
  const tokens = useAllPatsQuery(toListQuery(state));

  return (
    <PatsTable
      title={t('menu.controlPats')}
      list={list}
      tokens={tokens}
      withOwner
      filters={
        <UserSelect
          className="directory-filter"
          aria-label={t('pats.owner')}
          placeholder={t('pats.allOwners')}
          allowClear
          value={state.filters.owner || undefined}
          onChange={(owner) => setState({ filters: { ...state.filters, owner: owner ?? '' } })}
        />
      }
    />
  );
}
