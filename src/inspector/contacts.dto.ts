import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class ListContactsQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

export class ContactSummaryDto {
  @ApiProperty()
  contact_uid!: string;

  @ApiProperty({ type: 'string', nullable: true })
  name!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  location_uid!: string | null;
}

export class ContactListDto {
  @ApiProperty({ type: [ContactSummaryDto], description: 'By contact id.' })
  contacts!: ContactSummaryDto[];

  @ApiProperty({
    description:
      'False when the CRM cannot be listed (PODIUM_PROVIDER=api): contacts is empty, type an id.',
  })
  listable!: boolean;
}
