import { setUpSpaTests, startTestFileAfresh } from '@gatehouse/frontend-shared/testing';
import '@testing-library/jest-dom/vitest';
import { vi } from 'vitest';

startTestFileAfresh();
setUpSpaTests({ width: 1280 });

// No test connects to a real notification hub: the console's socket is a fake that tests drive.
vi.doMock('socket.io-client', () => import('./src/features/notifications/testing/fake-socket-io'));
