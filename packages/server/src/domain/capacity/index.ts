// The capacity module's public surface (contract: .tmp/capacity-contract.md). Nobody else reads
// or writes capacity_allocations directly.
export type { Claim, Holder } from './types.ts';
export { claimCapacity, claimErrors, claimResolved, claimSpec, resolveClaims } from './claimCapacity.ts';
export type { ResolvedClaim } from './types.ts';
export { releaseCapacity } from './releaseCapacity.ts';
export { confirmCapacity } from './confirmCapacity.ts';
export { eventDateSeatsBooked, eventDateSeatsBookedSql } from './eventDateSeatsBooked.ts';
export { sweepExpiredAllocations } from './sweepExpired.ts';
export { checkHoldLimits } from './holdLimits.ts';
