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

  @ApiProperty({ description: 'Conversation windows removed from the vector store.' })
  windows_removed!: number;
}
