import '@testing-library/jest-dom/vitest';
import { setUpSpaTests } from '@gatehouse/frontend-shared/testing';
import { vi } from 'vitest';

setUpSpaTests({ width: 1280 });

// No test connects to a real notification hub: the console's socket is a fake that tests drive.
vi.mock('socket.io-client', () => import('./src/features/notifications/testing/fake-socket-io'));
