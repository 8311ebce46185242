import { PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { CallerScope, type LocationScope } from '../auth/principal';
import { RequireScope } from '../auth/scopes';
import { ContactListDto, ListContactsQuery } from './contacts.dto';

/** The contact picker's source (the inspector's): ids and names, inside the key's locations. */
@ApiTags('contacts')
@RequireScope('admin')
@Controller('contacts')
export class ContactsController {
  constructor(@Inject(PODIUM_CONTACTS) private readonly podium: PodiumContacts) {}

  @Get()
  @ApiOperation({
    summary: 'List contacts (id, name, location) of the embedded CRM',
    description:
      'Up to `limit` (50) contacts by id. A location-bound key lists only its locations. With PODIUM_PROVIDER=api or none the CRM is not listed (`listable: false`).',
  })
  @ApiOkResponse({ type: ContactListDto })
  async list(
    @Query() query: ListContactsQuery,
    @CallerScope() scope?: LocationScope,
  ): Promise<ContactListDto> {
    if (!this.podium.list) {
      return { contacts: [], listable: false };
    }
    return { contacts: await this.podium.list(query.limit ?? 50, scope), listable: true };
  }
}
