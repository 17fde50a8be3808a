import Form from 'antd/es/form';
import type { ReactNode } from 'react';
import type { Permission } from '../api/users-api';
import { useDirectoryTranslation } from '../use-directory-translation';
import { FormDialog, useFormSubmit, type CallResult } from './FormDialog';
import { PermissionSelect } from './selects';

/** The other side of a group membership (`userId` from a group, `groupId` from a user) and its permission. */
export type MembershipValues<Side extends string> = Record<Side, string> & { permission: Permission };

export interface AddMembershipDialogProps<Side extends string> {
  title: string;
  /** The form's name (its fields' ids start with it). */
  name: string;
  /** The field that names the other side, its label, its required message and its picker. */
  side: { field: Side; label: string; requiredMessage: string; select: ReactNode };
  loading: boolean;
  add: (values: MembershipValues<Side>) => PromiseLike<CallResult>;
  /** After the server added the membership (the caller closes the dialog and says so). */
  onAdded: () => void;
  onClose: () => void;
}

/** Adds a user to a group as Reader or Owner, from either side (mounted while open). */
export function AddMembershipDialog<Side extends string>({ title, name, side, loading, add, onAdded, onClose }: AddMembershipDialogProps<Side>) {
  const { t } = useDirectoryTranslation();
  const [form] = Form.useForm<MembershipValues<Side>>();
  const { error, send } = useFormSubmit(form, [side.field, 'permission']);

  return (
    <FormDialog width={600} title={title} okText={t('common.add')} form={form} loading={loading} error={error} onClose={onClose}>
      <Form<MembershipValues<Side>>
        form={form}
        name={name}
        layout="vertical"
        initialValues={{ permission: 'Reader' }}
        onFinish={(values) => void send(() => add(values), onAdded)}
      >
        <Form.Item name={side.field as string} label={side.label} rules={[{ required: true, message: side.requiredMessage }]}>
          {side.select}
        </Form.Item>
        <Form.Item name="permission" label={t('permission.label')} rules={[{ required: true, message: t('permission.required') }]}>
          <PermissionSelect />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
