import type { ChangeRequest } from './entities/change-request.entity';

/** A change request with what its wire shape needs: the space's primary revision now. */
export interface ChangeRequestView {
  changeRequest: ChangeRequest;
  primaryRevision: string;
}
