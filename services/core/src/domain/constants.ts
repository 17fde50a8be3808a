// The domain's names and closed lists are part of the API's contracts, shared with the SPAs.
export * from '@gatehouse/contracts/domain';
