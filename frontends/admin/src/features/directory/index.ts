// The directory feature (users, groups, areas) as the shell routes it.
export { AreasPage } from './areas/AreasPage';
export { GroupDetailPage } from './groups/GroupDetailPage';
export { GroupsPage } from './groups/GroupsPage';
export { UserDetailPage } from './users/UserDetailPage';
export { UsersPage } from './users/UsersPage';
