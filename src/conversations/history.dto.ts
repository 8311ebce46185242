import { ApiProperty } from '@nestjs/swagger';

import { uidProperty } from '../common/api-docs';
import { IsUid } from '../common/validators';

export class ContactHistoryParams {
  @ApiProperty(uidProperty('The contact whose history is forgotten.'))
  @IsUid()
  contact_uid!: string;
}

/** What a forget removed. */
export class ForgetHistoryResponse {
  @ApiProperty()
  contact_uid!: string;

  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'The locations it was forgotten in (the key’s); null: every location.',
  })
  location_uids!: string[] | null;

  @ApiProperty({ description: 'Conversations that lost messages.' })
  conversations!: number;

  @ApiProperty({
    description: 'Conversation windows removed from the vector store before the answer.',
  })
  windows_removed!: number;

  @ApiProperty({
    description:
      'True when a large history is still being deleted in the background: none of it is returned by any route meanwhile, and the deletion resumes after a restart.',
  })
  pending!: boolean;
}
