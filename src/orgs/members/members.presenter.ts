import { Injectable } from '@nestjs/common';
import { UsersPresenter } from '../../users/users.presenter';
import { MemberResponse } from './dto/member.response';
import type { MemberRecord } from './members.repository';

@Injectable()
export class MembersPresenter {
  constructor(private readonly users: UsersPresenter) {}

  present({ member, teams, spaces }: MemberRecord): MemberResponse {
    return {
      object: 'member',
      id: member.userId,
      role: member.role,
      user: this.users.user(member.user!),
      disabled: member.disabled,
      joinedAt: member.joinedAt.toISOString(),
      ...(member.lastSeenAt ? { lastSeenAt: member.lastSeenAt.toISOString() } : {}),
      sso: member.sso,
      spaces,
      teams,
    };
  }
}
