import { Type } from 'typebox';
import { PaginationResponse } from './common.js';

export const Collection = Type.Object({
  object_addr: Type.String({ description: 'Collection address, 0x hex' }),
  collection: Type.Object({
    creator: Type.String({ description: 'bech32' }),
    name: Type.String(),
    origin_name: Type.String({ description: 'Name on the origin chain of an ICS-721 class' }),
    nfts: Type.Object({
      handle: Type.String(),
      length: Type.Integer({ description: 'Live (not burned) NFTs' }),
    }),
  }),
  height: Type.Integer({ description: 'Creation height' }),
  timestamp: Type.String({ description: 'Creation time, RFC 3339 UTC' }),
});

export const CollectionsResponse = Type.Object({
  collections: Type.Array(Collection),
  pagination: PaginationResponse,
});
export const CollectionResponse = Type.Object({ collection: Collection });

export const Nft = Type.Object({
  collection_addr: Type.String(),
  collection_name: Type.String(),
  collection_origin_name: Type.String(),
  object_addr: Type.String({ description: 'NFT object address (Move only, empty elsewhere)' }),
  owner: Type.String({ description: 'bech32' }),
  nft: Type.Object({ token_id: Type.String(), uri: Type.String() }),
  height: Type.Integer({ description: 'Height of the last mint, transfer or change' }),
  timestamp: Type.String(),
});

export const NftsResponse = Type.Object({ tokens: Type.Array(Nft), pagination: PaginationResponse });

export const orderByQuery = {
  order_by: Type.Optional(
    Type.Unsafe<'token_id' | 'height'>({
      type: 'string',
      enum: ['token_id', 'height'],
      default: 'token_id',
      description:
        'token_id (text order) or height (case-insensitive); ties go by the other, then an internal id',
    }),
  ),
};
