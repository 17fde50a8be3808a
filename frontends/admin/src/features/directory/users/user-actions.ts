import { useInviteUserMutation, useLockUserMutation, useUnlockUserMutation, type UserRow } from '../api/users-api';
import type { Feedback } from '../components/feedback';
import { displayName } from '../components/format';
import { useDirectoryTranslation } from '../use-directory-translation';

type UserRef = Pick<UserRow, 'id' | 'userName'>;

/** Invitation, lock and unlock of a user, each confirmed first; shared by the list and the detail page. */
export function useUserActions(feedback: Feedback) {
  const { t } = useDirectoryTranslation();
  const [invite] = useInviteUserMutation();
  const [lock] = useLockUserMutation();
  const [unlock] = useUnlockUserMutation();

  const sendInvitation = async (user: UserRef) => {
    if (!(await feedback.confirm({ title: t('invite.confirm', { userName: user.userName }), okText: t('users.invite') }))) return;
    const { data } = await invite(user.id);
    if (data?.success) feedback.success(t('invite.success'));
    else feedback.error(t('invite.failure'));
  };

  const setLocked = async (user: UserRef, locked: boolean) => {
    const confirmed = await feedback.confirm({
      title: t(locked ? 'lock.lockConfirm' : 'lock.unlockConfirm', { userName: user.userName }),
      content: t(locked ? 'lock.lockText' : 'lock.unlockText'),
      okText: t(locked ? 'users.lock' : 'users.unlock'),
      danger: locked,
    });
    if (!confirmed) return;
    const { data, error } = await (locked ? lock : unlock)(user.id);
    if (data?.success) {
      // The server's own view of the user: the one it actually changed.
      const changed = data.user;
      feedback.success(t(changed.locked ? 'lock.locked' : 'lock.unlocked', { name: displayName(changed), userName: changed.userName }));
    } else {
      // The spec has lock failures logged, not shown: the list's status column tells the outcome.
      console.error(`Could not ${locked ? 'lock' : 'unlock'} the user ${user.id}`, error ?? data);
    }
  };

  return {
    sendInvitation,
    lock: (user: UserRef) => setLocked(user, true),
    unlock: (user: UserRef) => setLocked(user, false),
  };
}
