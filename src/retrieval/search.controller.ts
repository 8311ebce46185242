import { Body, Controller, HttpCode, Post } from '@nestjs/common';

import { SearchRequestDto, type SearchResponseDto } from './search.dto';
import { SearchService } from './search.service';

@Controller('search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Post()
  @HttpCode(200)
  run(@Body() body: SearchRequestDto): Promise<SearchResponseDto> {
    return this.search.search(body);
  }
}
