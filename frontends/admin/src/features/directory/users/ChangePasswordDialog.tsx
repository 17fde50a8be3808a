import Form from 'antd/es/form';
import Password from 'antd/es/input/Password';
import { useChangeUserPasswordMutation, type UserDetail } from '../api/users-api';
import { FormDialog, useFormSubmit } from '../components/FormDialog';
import { useDirectoryTranslation } from '../use-directory-translation';
import { PasswordRules } from './PasswordRules';
import { confirmationRule } from './user-rules';

interface PasswordValues {
  password: string;
  confirmPassword: string;
}

export interface ChangePasswordDialogProps {
  /** The user, whose names and address a password should not be built on. */
  user: Pick<UserDetail, 'id' | 'userName' | 'email' | 'firstName' | 'lastName'>;
  onClose: () => void;
  /** With the server's message, when it sent one. */
  onChanged: (message: string | undefined) => void;
}

/** Sets a user's password (mounted while open). The policy itself is checked by the server. */
export function ChangePasswordDialog({ user, onClose, onChanged }: ChangePasswordDialogProps) {
  const { t } = useDirectoryTranslation();
  const [form] = Form.useForm<PasswordValues>();
  const [change, { isLoading }] = useChangeUserPasswordMutation();
  const { error, setError, send } = useFormSubmit(form, ['password', 'confirmPassword']);
  const password = Form.useWatch('password', form);

  const submit = (values: PasswordValues) =>
    send(
      () => change({ userId: user.id, ...values }),
      (answer) => {
        if (answer.success) onChanged(answer.message);
        else setError({ data: { message: answer.message } });
      },
    );

  return (
    <FormDialog title={t('userDetail.changePassword')} okText={t('common.save')} form={form} loading={isLoading} error={error} onClose={onClose}>
      <Form<PasswordValues> form={form} name="change-password" layout="vertical" onFinish={(values) => void submit(values)}>
        {/* Lets a password manager file the new password under the right account. */}
        <input type="text" autoComplete="username" value={user.userName} readOnly hidden />
        <Form.Item name="password" label={t('password.newPassword')} extra={t('password.temporary')} rules={[{ required: true, message: t('password.newRequired') }]}>
          <Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('password.confirmation')}
          dependencies={['password']}
          rules={[{ required: true, message: t('password.confirmationRequired') }, confirmationRule('password', t)]}
        >
          <Password autoComplete="new-password" />
        </Form.Item>
      </Form>
      <PasswordRules password={password} userInputs={[user.userName, user.email, user.firstName, user.lastName]} />
    </FormDialog>
  );
}
