import '@testing-library/jest-dom/vitest';
import { setUpSpaTests } from '@gatehouse/frontend-shared/testing';

setUpSpaTests({ width: 1024 });
