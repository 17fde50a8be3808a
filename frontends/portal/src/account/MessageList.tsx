import Alert from 'antd/es/alert';

export interface MessageListProps {
  messages: readonly string[];
  type?: 'error' | 'warning' | 'info' | 'success';
}

/** Server messages as alerts: each one is announced by screen readers when it appears. */
export function MessageList({ messages, type = 'error' }: MessageListProps) {
  if (!messages.length) return null;
  return (
    <div className="account-step__messages">
      {messages.map((message, index) => (
        <Alert key={`${index}-${message}`} type={type} showIcon title={message} />
      ))}
    </div>
  );
}
