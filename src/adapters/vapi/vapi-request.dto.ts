import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Equals, IsArray, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';

import { uidProperty } from '../../common/api-docs';
import { IsUid } from '../../common/validators';

/**
 * Vapi's `knowledge-base-request` server message, as far as we read it. These classes are
 * validated by the controller itself, not by the global pipe: Vapi sends many more fields
 * (assistant, artifact, phoneNumber…) that must be ignored, and a bad body answers 200 with
 * no documents instead of a 400 (Vapi's guidance: the call must not hear an error).
 */
export class VapiOpenAiMessageDto {
  @ApiProperty({ example: 'user', description: '`user`, `assistant`, `system`, `tool`…' })
  @IsString()
  role!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  content?: string | null;
}

/** Vapi's own message format (`messages[]`): its docs say `content`, its types `message`. */
export class VapiMessageItemDto {
  @ApiPropertyOptional({ example: 'user', description: '`user`, `bot`, `system`, `tool_calls`…' })
  @IsOptional()
  @IsString()
  role?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  message?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  content?: string;
}

export class VapiCustomerDto {
  @ApiPropertyOptional(uidProperty('Your id for the caller: used as `contact_uid` when set.'))
  @IsOptional()
  @IsUid()
  externalId?: string;

  @ApiPropertyOptional(uidProperty('E.164 phone number: `contact_uid` without an externalId.'))
  @IsOptional()
  @IsUid()
  number?: string;
}

export class VapiCallDto {
  @ApiPropertyOptional({ description: 'The call id: chunks of one call are coalesced by it.' })
  @IsOptional()
  @IsString()
  id?: string;

  @ApiPropertyOptional({ type: VapiCustomerDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => VapiCustomerDto)
  customer?: VapiCustomerDto;
}

export class VapiKnowledgeBaseRequestDto {
  @ApiProperty({ enum: ['knowledge-base-request'] })
  @Equals('knowledge-base-request')
  type!: 'knowledge-base-request';

  @ApiPropertyOptional({ type: [VapiOpenAiMessageDto], description: 'Read first.' })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => VapiOpenAiMessageDto)
  messagesOpenAIFormatted?: VapiOpenAiMessageDto[];

  @ApiPropertyOptional({ type: [VapiMessageItemDto], description: 'The fallback.' })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => VapiMessageItemDto)
  messages?: VapiMessageItemDto[];

  @ApiPropertyOptional({ type: VapiCallDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => VapiCallDto)
  call?: VapiCallDto;

  @ApiPropertyOptional({ type: VapiCustomerDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => VapiCustomerDto)
  customer?: VapiCustomerDto;
}

/** The envelope Vapi POSTs to `server.url`. */
export class VapiServerMessageDto {
  @ApiProperty({ type: VapiKnowledgeBaseRequestDto })
  @IsObject()
  @ValidateNested()
  @Type(() => VapiKnowledgeBaseRequestDto)
  message!: VapiKnowledgeBaseRequestDto;
}

export class VapiDocumentDto {
  @ApiProperty({ description: 'Live contact state, or one redacted history excerpt.' })
  content!: string;

  @ApiProperty({ description: '1 for the live contact; the rerank score for an excerpt.' })
  similarity!: number;

  @ApiProperty({ description: '`contact:<contact_uid>`, or the excerpt id.' })
  uuid!: string;
}

/** What Vapi reads back: `{ documents: [] }` whenever nothing arrived in time. */
export class VapiKnowledgeBaseResponseDto {
  @ApiProperty({ type: [VapiDocumentDto] })
  documents!: VapiDocumentDto[];
}
